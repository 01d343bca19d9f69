// Browser push on the notice settings page: subscribe this browser with the site's VAPID
// key (the Push API) and hand the subscription to the API, or undo both.
import { api } from "./api.js";

const section = document.getElementById("push-section");
const status = document.getElementById("push-status");
const enable = document.getElementById("push-enable");
const disable = document.getElementById("push-disable");

function keyBytes(base64url) {
  const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

function show(subscribed) {
  status.textContent = subscribed ? section.dataset.on : section.dataset.off;
  enable.hidden = subscribed;
  disable.hidden = !subscribed;
}

async function registration() {
  await navigator.serviceWorker.register("/sw.js");
  return navigator.serviceWorker.ready;
}

async function start() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    status.textContent = section.dataset.unsupported;
    enable.hidden = true;
    return;
  }
  const current = await (await registration()).pushManager.getSubscription();
  show(Boolean(current));
  enable.addEventListener("click", async () => {
    if ((await Notification.requestPermission()) !== "granted") {
      status.textContent = section.dataset.denied;
      return;
    }
    const reg = await registration();
    const subscription = await reg.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(section.dataset.key),
    });
    await api("/api/me/push-subscriptions", { method: "POST", body: subscription.toJSON() });
    show(true);
  });
  disable.addEventListener("click", async () => {
    const subscription = await (await registration()).pushManager.getSubscription();
    if (subscription) {
      await api("/api/me/push-subscriptions", { method: "DELETE", body: { endpoint: subscription.endpoint } });
      await subscription.unsubscribe();
    }
    show(false);
  });
}

start().catch((error) => { status.textContent = String(error.message || error); });
