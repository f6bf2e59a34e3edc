#pragma once
/// @file host_device.hpp
/// NOVAMD_HD marks functions compiled for both host and device (DESIGN principle 1).

#if defined(__CUDACC__)
#define NOVAMD_HD __host__ __device__ __forceinline__
#else
#define NOVAMD_HD inline
#endif
