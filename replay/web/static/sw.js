// The table page's service worker: the pages and files it opened, kept, so that an open table link
// opens again without a connection (the entries then wait in the page's outbox, table.js).
// Network first: online, every page is the server's as it stands (and the copy kept is renewed);
// offline, the last copy kept. Only GETs of this site; entries (POSTs) always go to the network.
"use strict";

var CACHE = "honba-table-1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (!(url.pathname.indexOf("/matches/") === 0 || url.pathname.indexOf("/static/") === 0)) return;
  if (/\/(clock|audit)$/.test(url.pathname)) return;  // live answers, never an old copy
  event.respondWith(
    fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    }, function () {
      // By its address alone: a navigation's request differs from the one the page asked to keep
      // (its mode, its headers), never the copy it needs.
      return caches.open(CACHE).then(function (cache) { return cache.match(request.url, {ignoreVary: true}); }).then(function (kept) {
        return kept || Response.error();
      });
    })
  );
});

// The page that registered the worker asks it to keep itself and its files (opened before the
// worker started, they did not pass through it).
self.addEventListener("message", function (event) {
  var keep = event.data && event.data.keep;
  if (!Array.isArray(keep)) return;
  var mine = keep.filter(function (url) { return new URL(url, self.location.href).origin === self.location.origin; });
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(mine); }));
});
