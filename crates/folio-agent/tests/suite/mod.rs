mod agent_loop;
mod server;
mod stream;
