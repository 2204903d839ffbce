mod agent_loop;
mod stream;
