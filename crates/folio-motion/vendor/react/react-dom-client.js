// react-dom/client: re-exports of the one React bundle (names read from react-dom/client 19.3.1 at vendor time)
import{M3 as m}from"./react-bundle.js";export default m;export const{createRoot,hydrateRoot,version}=m;
