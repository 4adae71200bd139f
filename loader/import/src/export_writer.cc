#include "waymesh/import/export_writer.h"

#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "export_format.h"
#include "waymesh/mesh/tolerances.h"

#ifndef WAYMESH_VERSION_STRING
#define WAYMESH_VERSION_STRING "waymesh (unknown version)"
#endif

namespace waymesh {
namespace {

constexpr size_t kChunkBytes = size_t{1} << 20;  // output is handed over in pieces this big
constexpr int kAreasPerLine = 64;

// Buffers JSON text and hands it to `flush_` in chunks; numbers are written with to_chars.
class JsonSink {
 public:
  explicit JsonSink(std::function<bool(std::string_view)> flush)
      : buf_(kChunkBytes), flush_(std::move(flush)) {}

  void Raw(std::string_view s) {
    if (s.size() > buf_.size()) {
      Flush();
      ok_ = ok_ && flush_(s);
      return;
    }
    Room(s.size());
    std::memcpy(buf_.data() + pos_, s.data(), s.size());
    pos_ += s.size();
  }
  void Char(char c) {
    Room(1);
    buf_[pos_++] = c;
  }
  // Shortest text that reads back as exactly `v` (the value must be finite).
  void Float(float v) {
    Room(32);
    pos_ = std::to_chars(buf_.data() + pos_, buf_.data() + buf_.size(), v).ptr - buf_.data();
  }
  void Int(int64_t v) {
    Room(24);
    pos_ = std::to_chars(buf_.data() + pos_, buf_.data() + buf_.size(), v).ptr - buf_.data();
  }
  void String(std::string_view s);
  // Flushes what is left; false when any flush failed.
  bool Finish() {
    Flush();
    return ok_;
  }

 private:
  void Room(size_t n) {
    if (pos_ + n > buf_.size()) Flush();
  }
  void Flush() {
    if (pos_ > 0) ok_ = ok_ && flush_(std::string_view(buf_.data(), pos_));
    pos_ = 0;
  }

  std::vector<char> buf_;
  size_t pos_ = 0;
  std::function<bool(std::string_view)> flush_;
  bool ok_ = true;
};

// Length of the valid UTF-8 sequence at the start of `s`, or 0 when it is not valid.
size_t Utf8SequenceLength(std::string_view s) {
  const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < n || b(1) < lo || b(1) > hi) return 0;
  for (size_t i = 2; i < n; ++i) {
    if (b(i) < 0x80 || b(i) > 0xBF) return 0;
  }
  return n;
}

// A JSON string; bytes that are not UTF-8 become U+FFFD so the document always parses.
void JsonSink::String(std::string_view s) {
  Char('"');
  while (!s.empty()) {
    const size_t n = Utf8SequenceLength(s);
    const unsigned char c = static_cast<unsigned char>(s[0]);
    if (n == 0) {
      Raw("\\ufffd");
    } else if (c == '"' || c == '\\') {
      Char('\\');
      Char(static_cast<char>(c));
    } else if (c < 0x20) {
      Raw(absl::StrFormat("\\u%04x", c));
    } else {
      Raw(s.substr(0, n));
    }
    s.remove_prefix(n == 0 ? 1 : n);
  }
  Char('"');
}

class Fnv1a64 {
 public:
  void Byte(uint8_t b) { h_ = (h_ ^ b) * 0x100000001B3ull; }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) Byte(static_cast<uint8_t>(v >> (8 * i)));
  }
  void F32(float v) { U32(std::bit_cast<uint32_t>(v)); }
  void Vec(Vec3 v) {
    F32(v.x);
    F32(v.y);
    F32(v.z);
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 0xCBF29CE484222325ull;
};

bool Absurd(float v) { return !std::isfinite(v) || std::fabs(v) > tol::kMaxCoordinate; }
bool Absurd(Vec3 v) { return Absurd(v.x) || Absurd(v.y) || Absurd(v.z); }

absl::Status Invalid(const SourceMesh& mesh, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrFormat(
      "%s: cannot write export: %s", mesh.origin.empty() ? "mesh" : mesh.origin, what));
}

// Polygon p as a fan needs convex corners: every turn the same way (collinear allowed).
absl::Status CheckPolygon(const SourceMesh& mesh, uint32_t p) {
  const uint32_t begin = mesh.poly_start[p], end = mesh.poly_start[p + 1];
  if (end < begin + 3)
    return Invalid(mesh, absl::StrFormat("polygon %d has %d corners", p, end - begin));
  for (uint32_t i = begin; i < end; ++i) {
    if (mesh.poly_verts[i] >= mesh.vertices.size()) {
      return Invalid(mesh, absl::StrFormat("polygon %d uses vertex %d (vertex count %d)", p,
                                           mesh.poly_verts[i], mesh.vertices.size()));
    }
  }
  if (end - begin == 3) return absl::OkStatus();
  bool left = false, right = false;
  const uint32_t n = end - begin;
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 a = mesh.vertices[mesh.poly_verts[begin + i]];
    const Vec3 b = mesh.vertices[mesh.poly_verts[begin + (i + 1) % n]];
    const Vec3 c = mesh.vertices[mesh.poly_verts[begin + (i + 2) % n]];
    const float turn = TriArea2XZ(a, b, c);
    left = left || turn > 0;
    right = right || turn < 0;
  }
  if (left && right) {
    return Invalid(mesh, absl::StrFormat("polygon %d is not convex and the format holds "
                                         "triangles only",
                                         p));
  }
  return absl::OkStatus();
}

// Checks everything the format cannot hold; returns the number of triangles to write.
absl::StatusOr<uint64_t> Validate(const SourceMesh& mesh) {
  const size_t polys = mesh.poly_area.size();
  if (mesh.poly_start.size() != polys + 1 || mesh.poly_start.front() != 0 ||
      mesh.poly_start.back() != mesh.poly_verts.size()) {
    return Invalid(mesh, "polygon arrays are inconsistent");
  }
  if (mesh.vertices.size() > UINT32_MAX) return Invalid(mesh, "more than 2^32 vertices");
  for (size_t i = 0; i < mesh.vertices.size(); ++i) {
    if (Absurd(mesh.vertices[i])) {
      return Invalid(
          mesh, absl::StrFormat("vertex %d is not finite or beyond %g m", i, tol::kMaxCoordinate));
    }
  }
  uint64_t triangles = 0;
  for (uint32_t p = 0; p < polys; ++p) {
    if (mesh.poly_start[p + 1] < mesh.poly_start[p]) {
      return Invalid(mesh, "polygon arrays are inconsistent");
    }
    if (absl::Status s = CheckPolygon(mesh, p); !s.ok()) return s;
    if (mesh.poly_area[p] >= kMaxAreas) {
      return Invalid(mesh, absl::StrFormat("polygon %d has area %d (> 63)", p, mesh.poly_area[p]));
    }
    triangles += mesh.poly_start[p + 1] - mesh.poly_start[p] - 2;
  }
  if (mesh.areas.size() > kMaxAreas) return Invalid(mesh, "more than 64 area types");
  for (size_t a = 0; a < mesh.areas.size(); ++a) {
    if (mesh.areas[a] && !std::isfinite(mesh.areas[a]->cost)) {
      return Invalid(mesh, absl::StrFormat("area %d has a non-finite cost", a));
    }
  }
  for (size_t i = 0; i < mesh.links.size(); ++i) {
    const SourceOffMeshLink& l = mesh.links[i];
    if (Absurd(l.start) || Absurd(l.end) || !std::isfinite(l.radius) || !std::isfinite(l.cost) ||
        l.area >= kMaxAreas) {
      return Invalid(mesh, absl::StrFormat("off-mesh link %d has a non-finite value or an "
                                           "area above 63",
                                           i));
    }
  }
  const AgentSettings& g = mesh.agent;
  for (float v : {g.radius, g.height, g.max_slope_deg, g.step_height, g.voxel_size}) {
    if (!std::isfinite(v)) return Invalid(mesh, "agent settings are not finite");
  }
  return triangles;
}

// Unity's built-in names for areas the mesh uses but does not describe.
AreaType DefaultArea(int id) {
  switch (id) {
    case 0:
      return {"Walkable", 1.0f, true};
    case 1:
      return {"Not Walkable", 1.0f, true};
    case 2:
      return {"Jump", 2.0f, true};
    default:
      return {absl::StrFormat("Area %d", id), 1.0f, true};
  }
}

void WriteHeader(const SourceMesh& mesh, const ExportWriterOptions& options, JsonSink& out) {
  out.Raw("{\"format\":");
  out.String(kExportFormatName);
  out.Raw(",\"version\":");
  out.Int(kExportFormatVersion);
  out.Raw(",\n\"exporter\":{\"name\":");
  out.String(options.exporter_name);
  out.Raw(",\"version\":");
  out.String(mesh.exporter_version.empty() ? WAYMESH_VERSION_STRING : mesh.exporter_version);
  out.Raw("},\n\"unity_version\":");
  out.String(mesh.unity_version);
  out.Raw(",\n\"scene\":{\"name\":");
  out.String(mesh.scene_name);
  out.Raw(",\"hash\":");
  out.String(mesh.source_hash.empty() ? ContentHash(mesh) : mesh.source_hash);
  out.Raw("},\n\"agents\":[{\"agent_type_id\":0,\"name\":\"Humanoid\",\"radius\":");
  out.Float(mesh.agent.radius);
  out.Raw(",\"height\":");
  out.Float(mesh.agent.height);
  out.Raw(",\"max_slope\":");
  out.Float(mesh.agent.max_slope_deg);
  out.Raw(",\"step_height\":");
  out.Float(mesh.agent.step_height);
  out.Raw(",\"voxel_size\":");
  out.Float(mesh.agent.voxel_size);
  out.Raw("}]");
}

// Every described area, plus Unity's defaults for used but undescribed ones, so every
// triangle's and link's area is declared.
void WriteAreas(const SourceMesh& mesh, JsonSink& out) {
  std::array<bool, kMaxAreas> used{};
  for (uint8_t a : mesh.poly_area) used[a] = true;
  for (const SourceOffMeshLink& l : mesh.links) used[l.area] = true;
  out.Raw(",\n\"areas\":[");
  bool first = true;
  for (int id = 0; id < kMaxAreas; ++id) {
    const bool described = id < static_cast<int>(mesh.areas.size()) && mesh.areas[id];
    if (!described && !used[id]) continue;
    const AreaType area = described ? *mesh.areas[id] : DefaultArea(id);
    out.Raw(first ? "\n{\"id\":" : ",\n{\"id\":");
    first = false;
    out.Int(id);
    out.Raw(",\"name\":");
    out.String(area.name);
    out.Raw(",\"cost\":");
    out.Float(area.cost);
    out.Char('}');
  }
  out.Char(']');
}

// "x,y,z": a vertex of the flat vertex array, or the inside of a point.
void WriteCoordinates(Vec3 v, JsonSink& out) {
  out.Float(v.x);
  out.Char(',');
  out.Float(v.y);
  out.Char(',');
  out.Float(v.z);
}

void WriteVertices(const SourceMesh& mesh, JsonSink& out) {
  out.Raw(",\n\"vertices\":[");
  for (size_t i = 0; i < mesh.vertices.size(); ++i) {
    out.Raw(i == 0 ? "\n" : ",\n");
    WriteCoordinates(mesh.vertices[i], out);
  }
  out.Char(']');
}

// One triangle per line; larger polygons as fans from their first corner.
void WriteIndices(const SourceMesh& mesh, JsonSink& out) {
  out.Raw(",\n\"indices\":[");
  bool first = true;
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    const uint32_t* v = mesh.poly_verts.data() + mesh.poly_start[p];
    const uint32_t n = mesh.poly_start[p + 1] - mesh.poly_start[p];
    for (uint32_t i = 1; i + 1 < n; ++i) {
      out.Raw(first ? "\n" : ",\n");
      first = false;
      out.Int(v[0]);
      out.Char(',');
      out.Int(v[i]);
      out.Char(',');
      out.Int(v[i + 1]);
    }
  }
  out.Char(']');
}

void WriteTriangleAreas(const SourceMesh& mesh, JsonSink& out) {
  out.Raw(",\n\"triangle_areas\":[");
  uint64_t written = 0;
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    const uint32_t triangles = mesh.poly_start[p + 1] - mesh.poly_start[p] - 2;
    for (uint32_t t = 0; t < triangles; ++t, ++written) {
      if (written > 0) out.Char(',');
      if (written % kAreasPerLine == 0) out.Char('\n');
      out.Int(mesh.poly_area[p]);
    }
  }
  out.Char(']');
}

void WritePoint(Vec3 p, JsonSink& out) {
  out.Char('[');
  WriteCoordinates(p, out);
  out.Char(']');
}

void WriteLinks(const SourceMesh& mesh, JsonSink& out) {
  out.Raw(",\n\"off_mesh_links\":[");
  for (size_t i = 0; i < mesh.links.size(); ++i) {
    const SourceOffMeshLink& l = mesh.links[i];
    out.Raw(i == 0 ? "\n{\"start\":" : ",\n{\"start\":");
    WritePoint(l.start, out);
    out.Raw(",\"end\":");
    WritePoint(l.end, out);
    out.Raw(",\"radius\":");
    out.Float(l.radius);
    out.Raw(l.bidirectional ? ",\"bidirectional\":true,\"area\":"
                            : ",\"bidirectional\":false,\"area\":");
    out.Int(l.area);
    out.Raw(",\"cost\":");
    out.Float(l.cost);
    out.Char('}');
  }
  out.Raw("]}\n");
}

void WriteAll(const SourceMesh& mesh, const ExportWriterOptions& options, JsonSink& out) {
  WriteHeader(mesh, options, out);
  WriteAreas(mesh, out);
  WriteVertices(mesh, out);
  WriteIndices(mesh, out);
  WriteTriangleAreas(mesh, out);
  WriteLinks(mesh, out);
}

}  // namespace

std::string ContentHash(const SourceMesh& mesh) {
  Fnv1a64 h;
  h.U32(static_cast<uint32_t>(mesh.vertices.size()));
  for (const Vec3& v : mesh.vertices) h.Vec(v);
  h.U32(static_cast<uint32_t>(mesh.poly_start.size()));
  for (uint32_t s : mesh.poly_start) h.U32(s);
  for (uint32_t v : mesh.poly_verts) h.U32(v);
  for (uint8_t a : mesh.poly_area) h.Byte(a);
  h.U32(static_cast<uint32_t>(mesh.links.size()));
  for (const SourceOffMeshLink& l : mesh.links) {
    h.Vec(l.start);
    h.Vec(l.end);
    h.F32(l.radius);
    h.F32(l.cost);
    h.Byte(l.bidirectional ? 1 : 0);
    h.Byte(l.area);
  }
  return absl::StrFormat("fnv1a64:%016x", h.value());
}

absl::StatusOr<std::string> WriteUnityExport(const SourceMesh& mesh,
                                             const ExportWriterOptions& options) {
  absl::StatusOr<uint64_t> triangles = Validate(mesh);
  if (!triangles.ok()) return triangles.status();
  std::string text;
  // About 25 bytes per vertex and 20 per triangle: one allocation for typical meshes.
  text.reserve(mesh.vertices.size() * 25 + *triangles * 20 + 4096);
  JsonSink out([&text](std::string_view chunk) {
    text.append(chunk);
    return true;
  });
  WriteAll(mesh, options, out);
  out.Finish();
  return text;
}

absl::StatusOr<uint64_t> WriteUnityExportFile(const SourceMesh& mesh, const std::string& path,
                                              const ExportWriterOptions& options) {
  absl::StatusOr<uint64_t> triangles = Validate(mesh);
  if (!triangles.ok()) return triangles.status();
  const std::string temp = path + ".tmp";
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (file == nullptr) {
    return absl::UnavailableError(
        absl::StrFormat("cannot write %s: %s", path, std::strerror(errno)));
  }
  uint64_t bytes = 0;
  int error = 0;
  JsonSink out([&](std::string_view chunk) {
    if (std::fwrite(chunk.data(), 1, chunk.size(), file) != chunk.size()) {
      error = errno;
      return false;
    }
    bytes += chunk.size();
    return true;
  });
  WriteAll(mesh, options, out);
  const bool written = out.Finish();
  if (std::fclose(file) != 0 && error == 0) error = errno;
  if (written && error == 0 && std::rename(temp.c_str(), path.c_str()) != 0) error = errno;
  if (!written || error != 0) {
    std::remove(temp.c_str());
    return absl::UnavailableError(
        absl::StrFormat("cannot write %s: %s", path, std::strerror(error != 0 ? error : EIO)));
  }
  return bytes;
}

}  // namespace waymesh
