// Loaded first by an image's daemon entry (build/image.ts): when the supervisor that forked this
// daemon goes away (its IPC channel closes, e.g. it was killed), the daemon stops as on Ctrl+C, so
// a restarted supervisor finds the port free and decides which release runs (docs/firmware.md).
// A supervisor killed while this daemon was still loading closed the channel before this ran: its
// 'disconnect' has passed already, so a closed channel here stops the daemon at once.
if (process.send) {
  const leave = () => {
    process.kill(process.pid, 'SIGTERM');
    // a daemon that does not stop within a few seconds is not left behind
    setTimeout(() => process.exit(1), 5000).unref();
  };
  if (process.connected) process.once('disconnect', leave);
  else leave();
}
