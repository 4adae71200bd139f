#include "waymesh/loadtest/request_builder.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "google/protobuf/dynamic_message.h"
#include "google/protobuf/util/json_util.h"

namespace waymesh::loadtest {

absl::StatusOr<std::vector<std::string>> BuildRequests(const google::protobuf::Descriptor& type,
                                                       const nlohmann::json& data) {
  std::vector<nlohmann::json> messages;
  std::vector<std::string> labels;
  if (data.is_null()) {
    messages.push_back(nlohmann::json::object());
    labels.push_back("data");
  } else if (data.is_array()) {
    for (size_t i = 0; i < data.size(); ++i) {
      messages.push_back(data[i]);
      labels.push_back(absl::StrCat("data[", i, "]"));
    }
  } else {
    messages.push_back(data);
    labels.push_back("data");
  }
  if (messages.empty()) return absl::InvalidArgumentError("data: the array of messages is empty");

  google::protobuf::DynamicMessageFactory factory(type.file()->pool());
  const google::protobuf::Message* prototype = factory.GetPrototype(&type);
  std::vector<std::string> out;
  out.reserve(messages.size());
  for (size_t i = 0; i < messages.size(); ++i) {
    if (!messages[i].is_object()) {
      return absl::InvalidArgumentError(absl::StrCat(labels[i], ": must be a JSON object (a ",
                                                     type.full_name(), "), got ",
                                                     messages[i].type_name()));
    }
    std::unique_ptr<google::protobuf::Message> message(prototype->New());
    const auto status =
        google::protobuf::util::JsonStringToMessage(messages[i].dump(), message.get());
    if (!status.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(labels[i], ": not a valid ", type.full_name(),
                                                     ": ", std::string(status.message())));
    }
    std::string bytes;
    if (!message->SerializeToString(&bytes)) {
      return absl::InvalidArgumentError(
          absl::StrCat(labels[i], ": cannot serialize as ", type.full_name()));
    }
    out.push_back(std::move(bytes));
  }
  return out;
}

}  // namespace waymesh::loadtest
