mod agent_loop;
mod ask;
mod connection;
mod egress;
mod faults;
mod quirks;
mod stream;
mod vision;
