import pako from "pako";
const x: number = pako;
console.log(typeof pako.Inflate);
