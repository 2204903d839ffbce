mod agent_loop;
mod stream;
mod vision;
