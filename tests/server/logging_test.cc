// Log configuration: JSON lines are valid JSON whatever the message holds; bad settings are
// refused naming the flag.

#include "waymesh/server/logging.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "spdlog/details/log_msg.h"

namespace waymesh::server {
namespace {

TEST(LoggingTest, JsonLinesEscapeEverything) {
  auto formatter = MakeJsonLogFormatter();
  const std::string message = "map \"a\\b\"\nloaded\t\x01 \xff\xfe bad utf-8";
  spdlog::details::log_msg msg("waymesh", spdlog::level::err,
                               spdlog::string_view_t(message.data(), message.size()));
  spdlog::memory_buf_t out;
  formatter->format(msg, out);
  const std::string line(out.data(), out.size());
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one object per line";
  const nlohmann::json parsed = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(parsed.is_discarded()) << line;
  EXPECT_EQ(parsed["level"], "error");
  EXPECT_EQ(parsed["logger"], "waymesh");
  EXPECT_THAT(parsed["msg"].get<std::string>(),
              ::testing::StartsWith("map \"a\\b\"\nloaded\t\x01"));
  EXPECT_THAT(parsed["time"].get<std::string>(), ::testing::MatchesRegex("[0-9-]+T[0-9:.]+Z"));
}

TEST(LoggingTest, RejectsUnknownSettings) {
  EXPECT_THAT(std::string(ConfigureLogging("yaml", "info").message()),
              ::testing::HasSubstr("--log-format"));
  EXPECT_THAT(std::string(ConfigureLogging("text", "loud").message()),
              ::testing::HasSubstr("--log-level"));
  EXPECT_TRUE(ConfigureLogging("json", "warn").ok());
  EXPECT_TRUE(ConfigureLogging("text", "info").ok());
}

}  // namespace
}  // namespace waymesh::server
