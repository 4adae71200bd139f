#include "waymesh/core/query_status.h"

namespace waymesh {

std::string_view QueryStatusName(QueryStatus status) {
  switch (status) {
    case QueryStatus::kComplete:
      return "COMPLETE";
    case QueryStatus::kPartial:
      return "PARTIAL";
    case QueryStatus::kNoPath:
      return "NO_PATH";
    case QueryStatus::kStartOffMesh:
      return "START_OFF_MESH";
    case QueryStatus::kEndOffMesh:
      return "END_OFF_MESH";
  }
  return "UNKNOWN";
}

}  // namespace waymesh
