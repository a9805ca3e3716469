import { h } from "preact";
import htm from "htm";

/** Tagged templates for Preact: no JSX, no build step beyond bundling. */
export const html = htm.bind(h);
