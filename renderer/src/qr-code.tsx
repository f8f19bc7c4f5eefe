import { useMemo } from 'react';
import { encode } from 'uqr';

/** One SVG path of every dark module: a square each, drawn on a light quiet zone. */
function modulesPath(data: boolean[][]): string {
  const parts: string[] = [];
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
    }),
  );
  return parts.join('');
}

/**
 * `text` as a QR code (uqr, a zero-dependency port of Nayuki's generator) drawn as SVG elements:
 * no canvas, no markup strings, nothing the page's Content-Security-Policy forbids. Error
 * correction M (15%) keeps a phone reading it from a glossy screen; the quiet zone is the
 * standard four modules.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const qr = useMemo(() => encode(text, { ecc: 'M', border: 4 }), [text]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      data-qr-text={text}
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shapeRendering="crispEdges"
    >
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={modulesPath(qr.data)} fill="#000" />
    </svg>
  );
}
