#include "layer_obstacles.h"

#include <algorithm>

#include "absl/hash/hash.h"

namespace waymesh::obstacles {
namespace {

// Ids are spread over this many buckets: a change copies one (a 64th of the layer's pointers)
// and a version copies the list of them.
constexpr size_t kBuckets = 64;

bool IdLess(const PlacedObstacle* a, const PlacedObstacle* b) {
  return a->obstacle.id < b->obstacle.id;
}

}  // namespace

LayerObstacles::LayerObstacles(uint32_t tile_count) : buckets_(kBuckets), by_tile_(tile_count) {}

size_t LayerObstacles::BucketOf(std::string_view id) const {
  return absl::Hash<std::string_view>{}(id) % kBuckets;
}

const PlacedObstacle* LayerObstacles::Find(std::string_view id) const {
  const std::shared_ptr<const Bucket>& bucket = buckets_[BucketOf(id)];
  if (bucket == nullptr) return nullptr;
  const auto it =
      std::lower_bound(bucket->begin(), bucket->end(), id,
                       [](const auto& p, std::string_view k) { return p->obstacle.id < k; });
  return it != bucket->end() && (*it)->obstacle.id == id ? it->get() : nullptr;
}

void LayerObstacles::Put(std::shared_ptr<const PlacedObstacle> placed) {
  std::shared_ptr<const Bucket>& shared = buckets_[BucketOf(placed->obstacle.id)];
  auto bucket = shared ? std::make_shared<Bucket>(*shared) : std::make_shared<Bucket>();
  const auto it =
      std::lower_bound(bucket->begin(), bucket->end(), placed,
                       [](const auto& a, const auto& b) { return IdLess(a.get(), b.get()); });
  if (it != bucket->end() && (*it)->obstacle.id == placed->obstacle.id) {
    Unlist(**it);
    CountArea((*it)->obstacle, -1);
    *it = placed;
  } else {
    bucket->insert(it, placed);
    ++size_;
  }
  List(*placed);
  CountArea(placed->obstacle, +1);
  shared = std::move(bucket);
}

bool LayerObstacles::Erase(std::string_view id) {
  std::shared_ptr<const Bucket>& shared = buckets_[BucketOf(id)];
  const PlacedObstacle* placed = Find(id);
  if (placed == nullptr) return false;
  Unlist(*placed);
  CountArea(placed->obstacle, -1);
  auto bucket = std::make_shared<Bucket>();
  bucket->reserve(shared->size() - 1);
  for (const auto& p : *shared) {
    if (p.get() != placed) bucket->push_back(p);
  }
  shared = bucket->empty() ? nullptr : std::move(bucket);
  --size_;
  return true;
}

void LayerObstacles::Unlist(const PlacedObstacle& placed) {
  for (const uint32_t t : placed.tiles) {
    auto list = std::make_shared<TileList>(*by_tile_[t]);
    std::erase(*list, &placed);
    by_tile_[t] = list->empty() ? nullptr : std::move(list);
  }
}

void LayerObstacles::List(const PlacedObstacle& placed) {
  for (const uint32_t t : placed.tiles) {
    auto list =
        by_tile_[t] ? std::make_shared<TileList>(*by_tile_[t]) : std::make_shared<TileList>();
    list->insert(std::lower_bound(list->begin(), list->end(), &placed, IdLess), &placed);
    by_tile_[t] = std::move(list);
  }
}

void LayerObstacles::CountArea(const Obstacle& o, int delta) {
  if (o.effect == ObstacleEffect::kArea) area_obstacles_[o.area] += delta;
}

std::vector<const PlacedObstacle*> LayerObstacles::Reaching(std::span<const uint32_t> tiles) const {
  std::vector<const PlacedObstacle*> out;
  for (const uint32_t t : tiles) {
    if (by_tile_[t]) out.insert(out.end(), by_tile_[t]->begin(), by_tile_[t]->end());
  }
  std::sort(out.begin(), out.end(), IdLess);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<Obstacle> LayerObstacles::All() const {
  std::vector<const PlacedObstacle*> all;
  all.reserve(size_);
  for (const auto& bucket : buckets_) {
    if (bucket == nullptr) continue;
    for (const auto& p : *bucket) all.push_back(p.get());
  }
  std::sort(all.begin(), all.end(), IdLess);
  std::vector<Obstacle> out;
  out.reserve(all.size());
  for (const PlacedObstacle* p : all) out.push_back(p->obstacle);
  return out;
}

uint64_t LayerObstacles::areas_given() const {
  uint64_t mask = 0;
  for (int a = 0; a < kMaxAreas; ++a) {
    if (area_obstacles_[a] > 0) mask |= uint64_t{1} << a;
  }
  return mask;
}

}  // namespace waymesh::obstacles
