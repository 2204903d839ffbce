mod agent_loop;
mod ask;
mod connection;
mod stream;
mod vision;
