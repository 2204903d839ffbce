// react/jsx-runtime: re-exports of the one React bundle (names read from react/jsx-runtime 19.3.1 at vendor time)
import{M1 as m}from"./react-bundle.js";export default m;export const{Fragment,jsx,jsxs}=m;
