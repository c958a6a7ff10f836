/*
 * One system call Node does not offer: mark a file descriptor close-on-exec.
 *
 * node-pty opens each pty master without FD_CLOEXEC (forkpty), so every program started after a
 * tile -- the next tile, a git or ssh belltower runs -- would inherit that tile's master: it could
 * type into the tile, and the tile would never hang up when belltower dies. belltower marks each
 * master (and every descriptor it inherited at start) close-on-exec right after it appears.
 *
 * And a second one: a duplicate of a descriptor, close-on-exec from its first moment
 * (F_DUPFD_CLOEXEC). The keyboard's thread writes keys to the focused tile's pty master through
 * its own duplicate: a number the main thread closes and the kernel hands out again (to the next
 * tile's master, a log file) can never receive them.
 */
#include <node_api.h>
#ifndef _WIN32
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#endif

/* The one argument both calls take, a file descriptor: -1 (and a TypeError thrown) when it is not
 * one. */
static int32_t fd_argument(napi_env env, napi_callback_info info, const char *message) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) {
    napi_throw_type_error(env, NULL, message);
    return -1;
  }
  return fd;
}

static napi_value set_cloexec(napi_env env, napi_callback_info info) {
  int32_t fd = fd_argument(env, info, "setCloexec takes a file descriptor");
  if (fd < 0) return NULL;
#ifndef _WIN32
  int flags = fcntl(fd, F_GETFD);
  if (flags == -1 || fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == -1) {
    /* A descriptor that closed meanwhile is no leak: say so, let the caller decide. */
    napi_value result;
    napi_get_boolean(env, 0, &result);
    if (errno == EBADF) return result;
    napi_throw_error(env, NULL, strerror(errno));
    return NULL;
  }
#endif
  napi_value ok;
  napi_get_boolean(env, 1, &ok);
  return ok;
}

static napi_value dup_cloexec(napi_env env, napi_callback_info info) {
  int32_t fd = fd_argument(env, info, "dupCloexec takes a file descriptor");
  if (fd < 0) return NULL;
  int copy = -1;
#ifndef _WIN32
  /* Above stderr: a duplicate must never land on 0, 1 or 2. */
  copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);
#endif
  /* -1: none made (`fd` not open, no descriptor left, no such call here). Keys then go the way
   * they always could, through the main thread: nothing to throw about. */
  napi_value result;
  napi_create_int32(env, copy, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "setCloexec", NAPI_AUTO_LENGTH, set_cloexec, NULL, &fn);
  napi_set_named_property(env, exports, "setCloexec", fn);
  napi_value dup;
  napi_create_function(env, "dupCloexec", NAPI_AUTO_LENGTH, dup_cloexec, NULL, &dup);
  napi_set_named_property(env, exports, "dupCloexec", dup);
  return exports;
}
