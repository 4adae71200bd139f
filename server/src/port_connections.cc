#include "port_connections.h"

#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cstdlib>
#include <string>

namespace waymesh::server {
namespace {

// The local port of socket `fd` if it is a connected TCP socket, else -1.
int ConnectedLocalPort(int fd) {
  sockaddr_storage local{}, peer{};
  socklen_t local_len = sizeof local, peer_len = sizeof peer;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_len) != 0) return -1;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_len) != 0) return -1;
  if (local.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&local)->sin_port);
  if (local.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<sockaddr_in6*>(&local)->sin6_port);
  }
  return -1;
}

}  // namespace

int ShutDownConnectionsOnPort(int port) {
  DIR* fds = ::opendir("/proc/self/fd");
  if (fds == nullptr) return 0;
  const int own = ::dirfd(fds);
  int count = 0;
  while (const dirent* e = ::readdir(fds)) {
    char* end = nullptr;
    const long fd = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0' || fd == own) continue;
    struct stat st;
    if (::fstat(int(fd), &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
    if (ConnectedLocalPort(int(fd)) != port) continue;
    if (::shutdown(int(fd), SHUT_RDWR) == 0) ++count;
  }
  ::closedir(fds);
  return count;
}

}  // namespace waymesh::server
