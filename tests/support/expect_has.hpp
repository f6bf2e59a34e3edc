#pragma once
// EXPECT_HAS(message, part): the message contains the part, else both are printed.

#include <gtest/gtest.h>

#include <string>

#define EXPECT_HAS(message, part)                    \
  EXPECT_NE((message).find(part), std::string::npos) \
      << "missing: " << (part) << "\nin: " << (message)
