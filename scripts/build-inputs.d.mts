/** Types of build-inputs.mjs (plain JS: the build runs it before anything is compiled). */
/** Every source file and runtime asset under the build's roots, as paths relative to `root`. */
export function buildInputs(root: string): string[];
/** Runtime assets among the inputs: the files the build copies next to the compiled modules. */
export function isAsset(path: string): boolean;
