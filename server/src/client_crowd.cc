#include "waymesh/server/client_crowd.h"

#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "waymesh/v1/crowd.grpc.pb.h"

namespace waymesh::server {

absl::StatusOr<std::vector<v1::RunCrowdRequest>> CrowdCommandsFromJson(absl::string_view json) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  if (!parsed.is_array()) {
    return absl::InvalidArgumentError(
        "RunCrowd takes a JSON array of RunCrowdRequest commands ([{\"open\": {...}}, ...])");
  }
  std::vector<v1::RunCrowdRequest> commands(parsed.size());
  for (size_t i = 0; i < parsed.size(); ++i) {
    if (auto s = google::protobuf::util::JsonStringToMessage(parsed[i].dump(), &commands[i]);
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("command ", i, " is not a RunCrowdRequest: ", s.ToString()));
    }
  }
  return commands;
}

grpc::Status RunCrowdSession(const std::shared_ptr<grpc::Channel>& channel,
                             grpc::ClientContext* context,
                             const std::vector<v1::RunCrowdRequest>& commands, absl::Duration hold,
                             std::ostream& out) {
  // A session is long-lived: the channel gets the call's deadline to connect, rather than a
  // first attempt that fails fast ending the stream UNAVAILABLE at once (if it never connects,
  // the stream says so).
  (void)channel->WaitForConnected(context->deadline());
  std::unique_ptr<v1::CrowdService::Stub> stub = v1::CrowdService::NewStub(channel);
  auto stream = stub->RunCrowd(context);
  // Events are read as they come, so a server-ticked crowd is never held back by its reader.
  std::thread reader([&] {
    v1::RunCrowdResponse event;
    google::protobuf::util::JsonPrintOptions options;
    options.preserve_proto_field_names = true;
    while (stream->Read(&event)) {
      std::string line;
      (void)google::protobuf::util::MessageToJsonString(event, &line, options);
      out << line << std::endl;
    }
  });
  bool sent = true;
  for (const v1::RunCrowdRequest& command : commands) {
    if (!(sent = stream->Write(command))) break;  // the stream ended: its status says why
  }
  if (sent) absl::SleepFor(hold);
  stream->WritesDone();
  reader.join();
  return stream->Finish();
}

}  // namespace waymesh::server
