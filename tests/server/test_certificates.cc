#include "test_certificates.h"

#include <fstream>
#include <iterator>

#include "child_process.h"
#include "gtest/gtest.h"

namespace waymesh::testing {

TestCertificates::TestCertificates() {
  ok_ = MakeCa("ca") && MakeLeaf("server", "ca") && MakeLeaf("client", "ca") && MakeCa("rogue") &&
        MakeLeaf("intruder", "rogue");
}

std::string TestCertificates::Read(const std::string& name) const {
  std::ifstream in(Path(name), std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool TestCertificates::Openssl(const std::vector<std::string>& args) const {
  absl::StatusOr<std::string> openssl = FindProgram("openssl");
  if (!openssl.ok()) return false;
  std::vector<std::string> argv = {*openssl};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string output;
  absl::StatusOr<int> code = RunProgram(argv, "", &output);
  if (!code.ok() || *code != 0) ADD_FAILURE() << "openssl failed: " << output;
  return code.ok() && *code == 0;
}

bool TestCertificates::MakeCa(const std::string& name) const {
  return Openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                  "-nodes", "-keyout", Path(name + ".key"), "-out", Path(name + ".pem"), "-days",
                  "2", "-subj", "/CN=waymesh test " + name});
}

bool TestCertificates::MakeLeaf(const std::string& name, const std::string& ca) const {
  std::ofstream(Path("san.ext")) << "subjectAltName=DNS:localhost,IP:127.0.0.1\n";
  return Openssl({"req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                  "-keyout", Path(name + ".key"), "-out", Path(name + ".csr"), "-subj",
                  "/CN=localhost"}) &&
         Openssl({"x509", "-req", "-in", Path(name + ".csr"), "-CA", Path(ca + ".pem"), "-CAkey",
                  Path(ca + ".key"), "-CAcreateserial", "-out", Path(name + ".pem"), "-days", "2",
                  "-extfile", Path("san.ext")});
}

}  // namespace waymesh::testing
