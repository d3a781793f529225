import { create } from 'qrcode';

/** Light modules around the code, as the QR standard asks, so phone cameras find its edges. */
const QUIET_ZONE = 4;

/**
 * The two-factor set-up link as a QR code, drawn here in the browser from the `qrcode` library's module matrix
 * (never by an outside service: the link carries the secret). It lives in the admin Security page's chunk, so no
 * participant page loads it.
 */
export function TotpQrCode({ url }: { url: string }) {
  const { modules } = create(url, { errorCorrectionLevel: 'M' });
  const size = modules.size + QUIET_ZONE * 2;
  let path = '';
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return (
    <svg
      role="img"
      aria-label="QR code of the set-up link: scan it with your authenticator app"
      viewBox={`0 0 ${size} ${size}`}
      width={224}
      height={224}
      shapeRendering="crispEdges"
      className="rounded-lg border border-slate-200 bg-white"
      data-testid="totp-qr"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
