mod commit;
mod contract;
mod crash;
mod fixture;
mod overlay;
mod symlinks;
mod watch;
