// vertex
uniform mat4 renderer_MVPMat;

in vec4 POSITION;
in vec2 TEXCOORD_0;

out vec2 uv;

void main() {
    gl_Position = renderer_MVPMat * POSITION;
    uv = TEXCOORD_0;
}

// fragment
out vec4 GS_glFragColor;

uniform vec4 material_BaseColor;
uniform sampler2D material_BaseTexture;

in vec2 uv;

void main() {
    vec4 texColor = texture(material_BaseTexture, uv);
    vec4 finalColor = texColor * material_BaseColor;
    GS_glFragColor = finalColor;
}
