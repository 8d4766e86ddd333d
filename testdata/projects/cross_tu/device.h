// GPU helpers defined in device.cpp.
#pragma once

namespace xtu {
/// Waits until all queued device work has finished.
void waitForDevice();
/// Copies one float from the device and returns it.
float readBack(const float *device);
} // namespace xtu
