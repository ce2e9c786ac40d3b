// Transfer commands executed by the front end on the rebuilt objects (Vulkan spec chapters
// "Copy Commands" and "Clear Commands", vkCmdUpdateBuffer / vkCmdFillBuffer): copies between
// buffers and images, blits with NEAREST / LINEAR filtering and format conversion, resolves
// (sample 0: images hold one sample), image clears and buffer updates.
#pragma once

#include "resources.h"

namespace tessera::frontend {

// Each executes one command; what cannot be replayed (unknown handle, unsupported format,
// region outside its resource) is counted in `skipped` per region. Written images are
// touch()ed, written memory marked known.
void execute_copy(Resources& res, const capture::CmdCopyRecord& rec, SkipCounts& skipped);
void execute_clear_image(Resources& res, const capture::CmdClearImageRecord& rec,
                         SkipCounts& skipped);
void execute_update_buffer(Resources& res, const capture::CmdUpdateBufferRecord& rec,
                           SkipCounts& skipped);
void execute_fill_buffer(Resources& res, const capture::CmdFillBufferRecord& rec,
                         SkipCounts& skipped);

}  // namespace tessera::frontend
