#include "support/command_line.hpp"

#include <cmath>
#include <exception>
#include <iostream>

namespace fem {
namespace {

CLI::Validator sign_check(bool zero_allowed) {
  const std::string rule = zero_allowed ? "a finite number of at least 0" : "a finite number above 0";
  return CLI::Validator(
      [zero_allowed, rule](std::string& text) {
        double value = 0;
        const bool number = CLI::detail::lexical_cast(text, value);
        return number && std::isfinite(value) && (value > 0 || (zero_allowed && value == 0)) ? std::string()
                                                                     : "needs " + rule + ", not " + text;
      },
      zero_allowed ? "NONNEGATIVE" : "POSITIVE");
}

}  // namespace

CLI::Validator positive_number() { return sign_check(false); }

CLI::Validator non_negative_number() { return sign_check(true); }

int run_command(CLI::App& options, int argc, char** argv, const std::function<void()>& body) {
  try {
    options.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << options.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << options.get_name() << ": " << e.what() << " (" << options.get_name() << " --help lists the options)\n";
    return 2;
  }
  try {
    body();
    return 0;
  } catch (const std::exception& e) {
    std::cout << std::flush;
    std::cerr << options.get_name() << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace fem
