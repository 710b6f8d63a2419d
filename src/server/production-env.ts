// Imported first by the server entry: libraries that pick a build when first loaded (React's server
// renderer above all, many times slower in its development build) must see production unless told
// otherwise. Tests and `astro dev` set NODE_ENV themselves.
process.env.NODE_ENV ??= 'production';
