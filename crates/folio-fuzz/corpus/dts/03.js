import { readFile } from 'env:fs';
import helper from './lib.js';
export * from './other.js';
export const x = 1;
export default class Thing {}
