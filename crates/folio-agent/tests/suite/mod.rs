mod agent_loop;
mod ask;
mod stream;
mod vision;
