/**
 * Rest.
 * @param {...number} nums
 */
export default function (...nums) { return nums.length; }
