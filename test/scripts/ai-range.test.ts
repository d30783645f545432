/**
 * What `npm run test:ai-range` installs for an `ai` release
 * (scripts/ai-range/plan.ts, pin.ts): the companions built on its provider
 * packages, a fallback said when the registry has none yet, one copy of each.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installProblems, pinManifest } from '../../scripts/ai-range/pin.ts';
import { planRange, type Release } from '../../scripts/ai-range/plan.ts';

const pins = (provider: string, utils: string, more: Record<string, string> = {}) => ({
  '@ai-sdk/provider': provider,
  '@ai-sdk/provider-utils': utils,
  ...more,
});

// the registry as it was on the day issue 39 was filed: no @ai-sdk/mcp on ai@7.0.185's provider packages yet
const REGISTRY: Record<string, Release[]> = {
  '@ai-sdk/openai': [
    { version: '4.0.126', dependencies: pins('4.0.39', '5.0.86') },
    { version: '4.0.118', dependencies: pins('4.0.38', '5.0.81') },
    { version: '4.0.110', dependencies: pins('4.0.36', '5.0.75') },
  ],
  '@ai-sdk/mcp': [
    { version: '2.0.92', dependencies: pins('4.0.36', '5.0.75') },
    { version: '2.0.99', dependencies: pins('4.0.38', '5.0.81') },
    { version: '2.0.100-beta.0', dependencies: pins('4.0.39', '5.0.86') },
  ],
  '@ai-sdk/react': [
    { version: '4.0.177', dependencies: pins('4.0.38', '5.0.81', { ai: '7.0.173', '@ai-sdk/mcp': '2.0.99' }) },
    { version: '4.0.167', dependencies: pins('4.0.36', '5.0.75', { ai: '7.0.163', '@ai-sdk/mcp': '2.0.92' }) },
  ],
};
const releases = async (name: string) => REGISTRY[name] ?? [];
const companions = { '@ai-sdk/react': 4, '@ai-sdk/openai': 4, '@ai-sdk/mcp': 2 };

describe('the plan of an ai-range run', () => {
  it("should take the newest companions built on the release's own provider packages", async () => {
    const plan = await planRange({ version: '7.0.163', aiDependencies: pins('4.0.36', '5.0.75'), companions, releases });
    expect(plan.packages).toEqual({
      ai: '7.0.163',
      ...pins('4.0.36', '5.0.75'),
      '@ai-sdk/openai': '4.0.110',
      '@ai-sdk/mcp': '2.0.92',
      '@ai-sdk/react': '4.0.167',
    });
    expect(plan.fallbacks).toEqual([]);
  });

  it('should fall back to the newest built on older ones when the registry has none yet, and say so', async () => {
    const plan = await planRange({ version: '7.0.185', aiDependencies: pins('4.0.39', '5.0.86'), companions, releases });
    expect(plan.packages).toMatchObject({ '@ai-sdk/openai': '4.0.126', '@ai-sdk/mcp': '2.0.99', '@ai-sdk/react': '4.0.177' });
    expect(plan.fallbacks).toEqual([
      'no @ai-sdk/mcp@2 release pins @ai-sdk/provider@4.0.39 @ai-sdk/provider-utils@5.0.86: installing @ai-sdk/mcp@2.0.99 ' +
        '(it pins @ai-sdk/provider@4.0.38 @ai-sdk/provider-utils@5.0.81) with @ai-sdk/provider@4.0.39 @ai-sdk/provider-utils@5.0.86 in their place',
      expect.stringMatching(/^no @ai-sdk\/react@4 release pins .*ai@7\.0\.185.*: installing @ai-sdk\/react@4\.0\.177 /),
    ]);
  });

  it('should refuse a release no companion can be built on', async () => {
    await expect(planRange({ version: '7.0.100', aiDependencies: pins('4.0.1', '5.0.1'), companions, releases })).rejects.toThrow(
      /no release of @ai-sdk\/(openai|mcp)@\d pins/,
    );
  });
});

describe('the install of an ai-range run', () => {
  const root = mkdtempSync(join(tmpdir(), 'ai-interventions-ai-range-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const install = (path: string, version: string) => {
    mkdirSync(join(root, path), { recursive: true });
    writeFileSync(join(root, path, 'package.json'), JSON.stringify({ version }));
  };

  it('should pin each package and override it everywhere below', () => {
    const manifest = {
      dependencies: { '@ai-sdk/provider': '^4.0.36' },
      devDependencies: { ai: '^7.0.173' },
      overrides: { rollup: '4.64.6' },
    };
    expect(pinManifest(manifest, { ai: '7.0.185', '@ai-sdk/provider': '4.0.39' })).toEqual({
      dependencies: { '@ai-sdk/provider': '4.0.39' },
      devDependencies: { ai: '7.0.185' },
      overrides: { rollup: '4.64.6', ai: '$ai', '@ai-sdk/provider': '$@ai-sdk/provider' },
    });
  });

  it('should find a second copy nested anywhere, and a copy at another version', () => {
    install('node_modules/ai', '7.0.185');
    install('node_modules/@ai-sdk/provider-utils', '5.0.86');
    expect(installProblems(root, { ai: '7.0.185', '@ai-sdk/provider-utils': '5.0.86' })).toEqual([]);
    install('node_modules/@ai-sdk/mcp/node_modules/@ai-sdk/provider-utils', '5.0.81');
    expect(installProblems(root, { ai: '7.0.185', '@ai-sdk/provider-utils': '5.0.86' })).toEqual([
      `${join(root, 'node_modules/@ai-sdk/mcp/node_modules/@ai-sdk/provider-utils')} is @ai-sdk/provider-utils@5.0.81, not 5.0.86`,
      `2 copies of @ai-sdk/provider-utils: ${join(root, 'node_modules/@ai-sdk/provider-utils')}, ${join(root, 'node_modules/@ai-sdk/mcp/node_modules/@ai-sdk/provider-utils')}`,
    ]);
  });
});
