const run = async ([a, b] = []) => a + b;
export { run as default };
