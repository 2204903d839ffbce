mod doctor_cache;
mod documents;
mod load;
mod module_cycles;
mod modules;
mod motion;
