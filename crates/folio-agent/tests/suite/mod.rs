mod agent_loop;
mod ask;
mod connection;
mod faults;
mod stream;
mod vision;
