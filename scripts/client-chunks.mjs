// @ts-check

/**
 * The browser code every page loads, in few chunks. Left to itself the bundler cuts the code shared by
 * the islands into one small chunk per combination of users (20-odd files of a few hundred bytes on
 * every page), and each file is compressed on its own, so the shared code of the site compressed
 * about a quarter worse than it does in one piece. Three groups instead:
 *
 * - `react`: React, React DOM and Astro's React renderer (any page with an island);
 * - `shell`: what the base layout loads on every page, statically: its script (the client shell), the
 *   client router's script and the overlay host island;
 * - `header`: the rest of what the site header island loads statically (pages with a header);
 * - `game`: what the islands of a game's pages (the banner's score and favourite button, the rating
 *   panel) load statically and no other code imports, so a game's page fetches one file for them.
 *
 * Code loaded on use (`import()`) stays in chunks of its own, as do page islands.
 * @returns {import('vite').Plugin}
 */
export function clientChunks() {
  /** @type {Set<string>} */
  const shell = new Set();
  /** @type {Set<string>} */
  const header = new Set();
  const react = /[\\/]node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/;
  const shellEntries = [
    /[\\/]src[\\/]layouts[\\/]BaseLayout\.astro\?astro&type=script/,
    /[\\/]node_modules[\\/]astro[\\/]components[\\/]ClientRouter\.astro\?astro&type=script/,
    /[\\/]src[\\/]components[\\/]islands[\\/]OverlayHost\.tsx$/,
  ];
  const headerEntries = [/[\\/]src[\\/]components[\\/]islands[\\/]header[\\/]SiteHeader\.tsx$/];
  /** @type {Set<string>} */
  const game = new Set();
  const gameEntries = [
    /[\\/]src[\\/]components[\\/]islands[\\/]catalogue[\\/](BannerScore|FavoriteButton|RatingPanel)\.tsx$/,
  ];

  return {
    name: 'hikari:client-chunks',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      /** @param {RegExp[]} entries @param {Set<string>} into @param {Set<string>} skip */
      const collect = (entries, into, skip) => {
        const stack = ids.filter((id) => entries.some((entry) => entry.test(id)));
        while (stack.length > 0) {
          const id = /** @type {string} */ (stack.pop());
          if (into.has(id) || skip.has(id) || react.test(id)) continue;
          into.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
      };
      collect(shellEntries, shell, new Set());
      collect(headerEntries, header, shell);
      collect(gameEntries, game, new Set([...shell, ...header]));
      // Only what no other code imports: a module shared with other islands keeps its own chunk, or their
      // pages would fetch the whole group; code loaded on use stays on its own. Dropping a module can
      // leave its imports shared, so repeat until nothing changes.
      for (let changed = true; changed;) {
        changed = false;
        for (const id of game) {
          const info = this.getModuleInfo(id);
          const onUse = (info?.dynamicImporters.length ?? 0) > 0;
          if (onUse || (info?.importers ?? []).some((importer) => !game.has(importer))) {
            game.delete(id);
            changed = true;
          }
        }
      }
      if (shell.size === 0 || header.size === 0)
        this.warn('client chunks: the base layout script, overlay host or site header was not found');
    },
    outputOptions(options) {
      return {
        ...options,
        codeSplitting: {
          groups: [
            { name: 'react', test: react, priority: 3 },
            { name: 'shell', test: (id) => shell.has(id), priority: 2 },
            { name: 'header', test: (id) => header.has(id), priority: 1 },
            { name: 'game', test: (id) => game.has(id), priority: 0 },
          ],
        },
      };
    },
  };
}
