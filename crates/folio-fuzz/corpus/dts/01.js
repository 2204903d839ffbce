/** Greets. @param {string} args.name who */
export default (args) => 'hi ' + args.name;
