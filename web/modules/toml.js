// The 3SoKu instance file the page sends (web/API.md "Instances"), written as TOML.

// A TOML basic string: JSON's escapes are TOML's for the characters a name can hold.
export function tomlString(s) { return JSON.stringify(String(s)); }

// A list of [a, b, c] tiles as a TOML array.
export function tilesArray(tiles) {
  return '[' + tiles.map((t) => '[' + t.join(', ') + ']').join(', ') + ']';
}

// The instance text: `variant` the solid's name; `tiles` the built-in set's name when the
// page uses that set unchanged (`tileSet`), else the list; `capacities` the pegs.
export function instanceToml({ variant, tileSet, tiles, pegs }) {
  let t;
  if (typeof tileSet === 'string' && tileSet) t = tomlString(tileSet);
  else if (Array.isArray(tiles)) t = tilesArray(tiles);
  else throw new Error('The solid has no tiles.');
  return 'variant = ' + tomlString(variant) + '\ntiles = ' + t + '\ncapacities = [' + pegs.join(', ') + ']\n';
}
