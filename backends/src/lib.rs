//! GLSL ES 100 and GLSL ES 300 backends (land with the "Backends" issue).
