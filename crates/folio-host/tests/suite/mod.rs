mod doctor_cache;
mod modules;
