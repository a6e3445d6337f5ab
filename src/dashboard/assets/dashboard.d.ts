// dashboard.js runs in the browser; the server imports it as text to serve it.
declare const text: string;
export default text;
