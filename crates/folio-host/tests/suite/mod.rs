mod doctor_cache;
mod documents;
mod load;
mod mcp;
mod module_cycles;
mod modules;
mod motion;
mod provenance;
