// Ages as people read them, in one place: "just now", "2 min ago", "3 h ago", "2 days ago".
// An ES module (import { ago } from "/static/ago.js"); a classic script can load it with
// import("/static/ago.js").

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// How long ago something happened `seconds` ago (a negative age, a clock a little ahead of
// the server's, is "just now"; anything but a finite number gives "").
export function ago(seconds) {
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return "";
  const s = Math.max(0, seconds);
  if (s < MINUTE) return "just now";
  if (s < HOUR) return `${Math.floor(s / MINUTE)} min ago`;
  if (s < DAY) return `${Math.floor(s / HOUR)} h ago`;
  const days = Math.floor(s / DAY);
  return days === 1 ? "1 day ago" : `${days} days ago`;
}
