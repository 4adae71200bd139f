#pragma once
// Certificates for the TLS tests, made for each run with the openssl command in a temporary
// directory (short-lived EC keys): CA "ca" signs the leaves "server" and "client", CA "rogue"
// signs "intruder". Each leaf names localhost and 127.0.0.1.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "support/demo_town.h"

namespace waymesh::testing {

class TestCertificates {
 public:
  // Makes them all; ok() says whether openssl managed (each failure is a test failure too).
  TestCertificates();
  bool ok() const { return ok_; }
  // The file `name` in the certificates' directory: "<name>.pem" and "<name>.key" per
  // certificate.
  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }
  // Its bytes; empty when it cannot be read.
  std::string Read(const std::string& name) const;

 private:
  bool Openssl(const std::vector<std::string>& args) const;
  bool MakeCa(const std::string& name) const;
  // A certificate for localhost / 127.0.0.1 signed by `ca`.
  bool MakeLeaf(const std::string& name, const std::string& ca) const;

  TempDir dir_;
  bool ok_ = false;
};

// A suite whose tests share one set of TestCertificates (made once per suite).
class TlsCertificatesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { certs_ = new TestCertificates(); }
  static void TearDownTestSuite() {
    delete certs_;
    certs_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(certs_->ok()) << "openssl could not make certificates"; }

  static std::string Path(const std::string& name) { return certs_->Path(name); }
  static std::string Read(const std::string& name) { return certs_->Read(name); }

  static inline TestCertificates* certs_ = nullptr;
};

}  // namespace waymesh::testing
