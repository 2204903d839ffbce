mod commit;
mod contract;
mod crash;
mod fixture;
mod overlay;
mod range;
mod symlinks;
mod watch;
