/** @typedef {{x: number}} P */
/**
 * @param {P} p the point
 */
function go(p) {}
export default go;
