mod doctor_cache;
mod load;
mod module_cycles;
mod modules;
mod motion;
