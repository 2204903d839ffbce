mod doctor_cache;
mod module_cycles;
mod modules;
