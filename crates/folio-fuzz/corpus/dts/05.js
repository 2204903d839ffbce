export default function ({ a, b: { c }, ...rest } = {}) { return `${a}${c}`; }
