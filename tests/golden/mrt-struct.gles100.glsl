// vertex
attribute vec3 POSITION;
attribute vec2 TEXCOORD_0;

varying vec2 uv;

uniform mat4 renderer_MVPMat;

void main() {
    vec4 position = vec4(POSITION, 1.0);
    gl_Position = renderer_MVPMat * position;
    uv = TEXCOORD_0;
}

// fragment
varying vec2 uv;

uniform vec4 material_BaseColor;

void main() {
    vec4 baseColor = material_BaseColor;
    gl_FragData[0] = baseColor;
    gl_FragData[1] = baseColor;
}
