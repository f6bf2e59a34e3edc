#pragma once
/// @file vec3_pointers.hpp
/// The particle updates' names for core/vec3_pointers.hpp (structure-of-arrays pointers of one
/// vector quantity, host or device).

#include "novamd/core/vec3_pointers.hpp"

namespace novamd::integrate {

using core::image_pointers_of;
using core::Int3Pointers;
using core::pointers_of;
using core::Vec3Pointers;

}  // namespace novamd::integrate
