// The browser's cookie writer (app/components/cookie.py): sets one cookie of this site from the
// data Python sends ({name, value, maxAge}); draws nothing. The value arrives URL-encoded.
export default function (component) {
  const data = component.data || {};
  if (typeof data.name !== "string" || typeof data.value !== "string") return;
  if (!/^[A-Za-z0-9_]+$/.test(data.name) || !/^[A-Za-z0-9%._~-]*$/.test(data.value)) return;
  const age = Math.max(0, Math.floor(Number(data.maxAge) || 0));
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  const cookie = data.name + "=" + data.value + "; Path=/; Max-Age=" + age + "; SameSite=Strict" + secure;
  if (component.parentElement.__mctsCookie !== cookie) {
    document.cookie = cookie;
    component.parentElement.__mctsCookie = cookie;
  }
}
