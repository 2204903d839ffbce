mod charts;
mod module;
mod svg_files;
