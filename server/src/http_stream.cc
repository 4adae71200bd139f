#include "waymesh/server/http_stream.h"

#include <algorithm>
#include <utility>

namespace waymesh::server {

HttpStream::HttpStream(HttpStreamOptions options) : options_(std::move(options)) {}

HttpStream::Sent HttpStream::Send(std::string piece) {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_ || close_wanted_) return Sent::kClosed;
  // One piece larger than the whole backlog still goes when nothing waits, or it never would.
  if (backlog_ > 0 && backlog_ + piece.size() > options_.max_backlog_bytes) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return Sent::kDropped;
  }
  backlog_ += piece.size();
  if (write_) {
    write_(std::move(piece));
  } else {
    early_ += piece;
  }
  return Sent::kQueued;
}

void HttpStream::Close() {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_ || close_wanted_) return;
  close_wanted_ = true;
  if (finish_) finish_();
}

bool HttpStream::closed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return closed_ || close_wanted_;
}

void HttpStream::Attach(std::function<void(std::string)> write, std::function<void()> finish) {
  std::lock_guard<std::mutex> lock(mu_);
  write_ = std::move(write);
  finish_ = std::move(finish);
  if (closed_) return;
  if (!early_.empty()) write_(std::exchange(early_, {}));
  if (close_wanted_) finish_();
}

void HttpStream::Taken(size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  backlog_ -= std::min(bytes, backlog_);
}

void HttpStream::Detach() {
  std::function<void()> on_close;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return;
    closed_ = true;
    write_ = nullptr;
    finish_ = nullptr;
    early_.clear();
    on_close = options_.on_close;
  }
  if (on_close) on_close();
}

}  // namespace waymesh::server
