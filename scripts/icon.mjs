// `npm run icon`: renders media/icon.svg to media/icon.png (128×128, the Marketplace size) with the
// Chromium the integration harness uses, so the PNG is reproducible offline from its source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, ROOT } from './vscode-host.mjs';

const size = Number(process.argv.find((a) => a.startsWith('--size='))?.slice(7) ?? 128);
const out = process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? join(ROOT, 'media/icon.png');
const svg = readFileSync(join(ROOT, 'media/icon.svg'), 'utf8');
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">` +
      `<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" width="${size}" height="${size}">` +
      `</body></html>`,
  );
  await page.screenshot({ path: out, omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
  console.log(`wrote ${out} (${size}×${size})`);
} finally {
  await browser.close();
}
